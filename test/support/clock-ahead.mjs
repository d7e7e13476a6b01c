// Loaded with --import into a child process (the bundled action or CLI): its clock runs
// CONVY_TEST_CLOCK_AHEAD_MS ahead of the machine's, so what it says of an age ("made 5 hours ago")
// does not depend on how long the steps before it took. Timers are left alone: only Date moves.
const ahead = Number(process.env.CONVY_TEST_CLOCK_AHEAD_MS ?? 0)
const RealDate = globalThis.Date

class AheadDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + ahead)
    else super(...args)
  }

  static now() {
    return RealDate.now() + ahead
  }
}

globalThis.Date = AheadDate
