"""Problems: the folder format, TopCoder types, checkers, the catalog of problems and stored solutions."""
