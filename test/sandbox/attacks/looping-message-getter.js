// A thrown value whose message never finishes reading.
throw {
  get message() {
    for (;;) {}
  },
};
