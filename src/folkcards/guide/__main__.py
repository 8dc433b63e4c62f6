"""``python -m folkcards.guide``: print ``index.json`` (the pages' structure as data)."""

from __future__ import annotations

import json

from folkcards.guide import build_index

if __name__ == "__main__":
    print(json.dumps(build_index(), ensure_ascii=False, indent=2))
