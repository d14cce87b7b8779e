"""Real tables as a data source: ``vega_datasets``' offline copies and user CSV files
(``tables.py``), turned into chart data by registered recipes (``recipes/``) that record, for
every category, which source rows its value was computed from and how."""
