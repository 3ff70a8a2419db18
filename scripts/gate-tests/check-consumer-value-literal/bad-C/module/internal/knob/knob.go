package knob

// The knob engine is the sanctioned producer: never read.
const QueueFile = "docs/queue.md"
