// A Play call a test drives by hand, and a bot that thinks on cue, for the playSeat tests.

/** A Play call the test drives by hand: `feed` emits messages, `fail` ends it with a status. */
export class FakeCall {
  constructor() {
    this.handlers = { data: [], status: [], error: [] };
    this.written = [];
    this.writableEnded = false;
    this.destroyed = false;
  }
  on(name, handler) {
    (this.handlers[name] ??= []).push(handler);
    return this;
  }
  emit(name, value) {
    for (const handler of this.handlers[name] ?? []) handler(value);
  }
  write(message) {
    this.written.push(message);
  }
  end() {
    this.writableEnded = true;
  }
  cancel() {
    this.destroyed = true;
  }
  feed(kind, body) {
    this.emit('data', { kind, [kind]: body });
  }
  fail(code, details) {
    this.emit('error', Object.assign(new Error(details), { code, details }));
    this.emit('status', { code, details });
  }
}

export const decision = (id) => ({ decision_id: String(id), seat: 0, prompt: '', actions: [{ label: 'a' }], events: [] });

// A bot that records the decisions it is asked, and thinks on decision '1'
// until `release()` is called.
export function thinkingOnFirst() {
  const decided = [];
  let release;
  const thinking = new Promise((resolve) => (release = resolve));
  const decide = async (view) => {
    decided.push(view.decisionId);
    if (view.decisionId === '1') await thinking;
    return 0;
  };
  return { decided, decide, release: () => release() };
}
