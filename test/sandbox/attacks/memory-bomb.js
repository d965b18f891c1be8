// Grows until the isolate's memory limit ends it.
const keep = [];
for (;;) keep.push(new Array(1e6).fill(1.5));
