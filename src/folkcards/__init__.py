"""folkcards: Sasku, Scopone, Sheepshead, Satat and Huutopussi, exactly by their rules."""

__version__ = "0.1.0"
