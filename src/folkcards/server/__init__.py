"""The web table: Starlette app, websocket protocol, table logic and durable storage."""
