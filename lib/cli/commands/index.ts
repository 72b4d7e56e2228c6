/** The registry of commands. A command is listed here only once it works. */
import type { CommandModule } from '../command.js';

export const commands: Array<() => Promise<CommandModule<any>>> = [
];
