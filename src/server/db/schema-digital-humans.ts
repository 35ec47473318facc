/** The tables of digital humans (issue 31, migration 0040). Re-exported from ./schema. */
import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { apps, files, tenants, workspaces } from './schema';

const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** A character of a project space: its look (portrait image or idle clip), voice, persona and greeting. */
export const characters = pgTable(
  'characters',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    portraitFileId: uuid('portrait_file_id').references(() => files.id, { onDelete: 'set null' }),
    idleClipFileId: uuid('idle_clip_file_id').references(() => files.id, { onDelete: 'set null' }),
    /** `{ provider?, model?, voice?, speed }` (schemas/digital-human.ts CharacterVoice). */
    voice: jsonb('voice').$type<{ provider?: string; model?: string; voice?: string; speed: number }>().notNull(),
    persona: text('persona').notNull().default(''),
    greeting: text('greeting').notNull().default(''),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [index('characters_ws').on(t.workspaceId, t.updatedAt)],
);

/** An app that is a digital human: its kind and the character it speaks as (one row per app). */
export const digitalHumanApps = pgTable(
  'digital_human_apps',
  {
    appId: uuid('app_id')
      .primaryKey()
      .references(() => apps.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    kind: text('kind', { enum: ['conversation', 'broadcast'] }).notNull(),
    characterId: uuid('character_id').references(() => characters.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('digital_human_apps_character').on(t.characterId)],
);

/**
 * A broadcast video of a broadcast app: its script and the render task's state. The MP4 lives in the
 * data directory (`videos/<tenant>/<id>.mp4`); each render is a job of the `broadcast-render` queue
 * (digital-human/render-jobs.ts), so any server process on the database may take it and a dead one's
 * render is taken again.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    script: text('script').notNull(),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    /** Bumped by each edit: a render that finishes for an older generation is thrown away. */
    generation: integer('generation').notNull().default(1),
    /** The rendered file's name under the data directory (null until the first render is done). */
    videoKey: text('video_key'),
    subtitles: text('subtitles'),
    duration: doublePrecision('duration'),
    size: integer('size'),
    /** Starts of the current generation's render (a retried one after its process stopped counts again). */
    attempts: integer('attempts').notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...stamps,
  },
  (t) => [index('broadcasts_app').on(t.appId, t.createdAt), index('broadcasts_state').on(t.state, t.createdAt)],
);
