"""Pure readers of cloud cost exports (no Django): one module per format, `dispatch`
picks one by the header and folds the file into aggregates."""
