/**
 * CONSOLE datasets group, issue 33's segment calls (spec 7.5): segment delete and a segment's index
 * entries (get, set, regenerate; the unit's generation and its status). Answers are parsed with the
 * schemas of schemas/knowledge-tasks.ts.
 */
import { z } from 'zod';
import { SegmentIndex, SegmentIndexStatus, type SegmentIndexType, type SegmentIndexUpdateBody } from '../../schemas/knowledge-tasks';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const doc = '/api/v1/console/datasets/:dataset_id/documents/:document_id';
const seg = `${doc}/segments/:segment_id`;

export const datasetIndexEndpoints = {
  removeSegment: { method: 'DELETE', url: seg, name: 'datasets.removeSegment' },
  segmentIndexes: { method: 'GET', url: `${seg}/indexes`, name: 'datasets.segmentIndexes' },
  setSegmentIndexes: { method: 'PUT', url: `${seg}/indexes`, name: 'datasets.setSegmentIndexes' },
  regenerateSegmentIndexes: { method: 'POST', url: `${seg}/indexes/regenerate`, name: 'datasets.regenerateSegmentIndexes' },
  generateUnitIndexes: { method: 'POST', url: `${doc}/segment-indexes/generate`, name: 'datasets.generateUnitIndexes' },
  unitIndexStatus: { method: 'GET', url: `${doc}/segment-indexes/status`, name: 'datasets.unitIndexStatus' },
} as const satisfies Record<string, Endpoint>;

const ep = datasetIndexEndpoints;
type Seg = { dataset_id: string; document_id: string; segment_id: string };
type Doc = { dataset_id: string; document_id: string };

/** Deletes a segment (a parent with its children) with its vectors, index entries and graph relations. */
export const deleteSegment = (p: Seg, o?: Opts) => call(z.unknown(), ep.removeSegment, { ...p }, o);
export const segmentIndexes = (p: Seg, o?: Opts) => call(z.array(SegmentIndex), ep.segmentIndexes, { ...p }, o);
/** The segment's whole list as it should be: kept by id, added without, removed when left out. */
export const setSegmentIndexes = (p: Seg, body: SegmentIndexUpdateBody, o?: Opts) => call(z.array(SegmentIndex), ep.setSegmentIndexes, { ...body, ...p }, o);
/** Generates the segment's entries of the types again now with the tenant's default chat model. */
export const regenerateSegmentIndexes = (p: Seg, types: SegmentIndexType[], o?: Opts) => call(z.array(SegmentIndex), ep.regenerateSegmentIndexes, { types, ...p }, o);
/** Queues the generation of every segment's entries (an `index` task). */
export const generateUnitIndexes = (p: Doc, types: SegmentIndexType[], o?: Opts) => call(SegmentIndexStatus, ep.generateUnitIndexes, { types, ...p }, o);
export const unitIndexStatus = (p: Doc, o?: Opts) => call(SegmentIndexStatus, ep.unitIndexStatus, { ...p }, o);
