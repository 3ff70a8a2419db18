package paths

// Base spells a directory through a constant another package folds.
const Base = "do" + "cs" // consumer-value-exempt: the case's declared directory
