// What both commands (sheepfold-node-bot, sheepfold-create-match) say of a usage error.

export class UsageError extends Error {}

/**
 * A value as a usage error quotes it: in quotes, so that a newline in it cannot break the message over lines,
 * and cut at 60 characters, so that a 100,000-character one does not bury the message (as `sheepfold bot`).
 */
export function shown(text) {
  const value = String(text);
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
}

/**
 * A usage error as `command` prints it on stderr: the one-line reason, then where the help is. The whole help
 * after it (40 lines for the bot) pushed the reason off the top of the terminal.
 */
export function usageErrorText(command, message) {
  return `${command}: ${message}\nRun '${command} --help' to see its options.\n`;
}
