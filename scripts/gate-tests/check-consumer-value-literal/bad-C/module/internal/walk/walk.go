package walk

// A universal layer: the cut stops here.
const Root = "docs/queue.md"
