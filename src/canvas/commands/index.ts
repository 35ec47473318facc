import { copyCommand, cutCommand, duplicateCommand, pasteCommand } from './clipboard-commands';
import {
  addNodeCommand,
  deleteSelectionCommand,
  layoutCommand,
  moveIntoContainerCommand,
  moveOutOfContainerCommand,
  redoCommand,
  selectAllCommand,
  undoCommand,
} from './edit-commands';
import type { AnyCanvasCommand } from './types';

/** The editor's built-in commands; an editor may pass more to the manager (`[...builtinCommands, mine]`). */
export const builtinCommands: readonly AnyCanvasCommand[] = [
  addNodeCommand,
  deleteSelectionCommand,
  duplicateCommand,
  copyCommand,
  cutCommand,
  pasteCommand,
  selectAllCommand,
  undoCommand,
  redoCommand,
  moveIntoContainerCommand,
  moveOutOfContainerCommand,
  layoutCommand,
];

export * from './types';
export { createCommandManager, defineCommand, type CommandManager, type CommandManagerOptions } from './manager';
export { formatShortcut, isMacPlatform, isTypingTarget, keyTargetOf, matchShortcut } from './shortcuts';
export { pastePayload, type PasteArgs } from './clipboard-commands';
export type { AddNodeArgs, MoveIntoContainerArgs } from './edit-commands';
