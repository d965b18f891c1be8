// Allocates one huge array at once: V8 aborts the whole sandbox process.
new Array(5e7).fill(1.5);
