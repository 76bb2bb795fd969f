"""The dashboard: views, forms and what the pages show."""
