"""Pure computation: plain data in, plain data out (no models, requests or translation)."""
