"""Grading on a Dask cluster: the same engine on other machines, with problems and solutions shipped
to the workers as content-addressed bundles. Imported only for `--cluster` (dask is an optional extra)."""
