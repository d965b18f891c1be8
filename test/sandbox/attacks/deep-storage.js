// Writes a value nested 3000 levels deep into storage.
const o = {};
let c = o;
for (let i = 0; i < 3000; i++) {
  c.a = {};
  c = c.a;
}
storage.deep = o;
