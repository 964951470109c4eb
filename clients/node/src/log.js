// JSON lines on stderr (stdout carries only the final result).

const LEVELS = { debug: 10, info: 20, warning: 30, error: 40 };

export function isLevel(name) {
  return Object.hasOwn(LEVELS, name);
}

/** A logger writing one JSON object per line; `bind` adds fields to every line. */
export function createLogger({ level = 'info', write = (line) => process.stderr.write(line), fields = {} } = {}) {
  if (!isLevel(level)) throw new Error(`unknown log level ${level}`);
  const threshold = LEVELS[level];
  const emit = (name, event, extra) => {
    if (LEVELS[name] < threshold) return;
    write(`${JSON.stringify({ timestamp: new Date().toISOString(), level: name, logger: 'sheepfold.node', event, ...fields, ...extra })}\n`);
  };
  return {
    debug: (event, extra = {}) => emit('debug', event, extra),
    info: (event, extra = {}) => emit('info', event, extra),
    warning: (event, extra = {}) => emit('warning', event, extra),
    error: (event, extra = {}) => emit('error', event, extra),
    bind: (more) => createLogger({ level, write, fields: { ...fields, ...more } }),
  };
}

/** A logger that drops everything. */
export const silentLogger = createLogger({ level: 'error', write: () => {} });
