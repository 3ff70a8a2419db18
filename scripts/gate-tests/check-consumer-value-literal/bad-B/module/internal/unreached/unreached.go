package unreached

// No member's cut imports this package.
const Queue = "docs/queue.md"
