// Never returns: spends the whole CPU budget of its phase.
for (;;) {}
