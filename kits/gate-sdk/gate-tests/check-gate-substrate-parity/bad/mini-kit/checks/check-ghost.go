package ghost

// The ghost rule, beside its descriptor.
