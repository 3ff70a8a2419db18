package paths

// Base spells a directory through a constant another package folds.
const Base = "do" + "cs" // consumer-value-exempt: the case's declared directory

// Queue is reached only through the withheld member's import.
const Queue = Base + `/queue.md`
