import { describe, expect, it } from 'vitest';
import { checkIdentifier, SEGMENTATION_DEFAULTS, segmentationErrors, separatorsOf, SEPARATORS } from './segmentation';

describe('segmentation settings (spec 5, 9)', () => {
  it('defaults to general mode, max length 800, overlap 0, and is valid', () => {
    expect(SEGMENTATION_DEFAULTS).toMatchObject({ mode: 'general', max_length: 800, overlap: 0 });
    expect(segmentationErrors(SEGMENTATION_DEFAULTS)).toEqual({});
  });

  it('offers the spec 9 separators', () => {
    expect(SEPARATORS.map((s) => s.value)).toEqual(['\n', '\n\n', '。', '.', '！', '!', '？', '?']);
  });

  it('requires max length and overlap, and keeps the overlap under the max length', () => {
    expect(segmentationErrors({ ...SEGMENTATION_DEFAULTS, max_length: undefined, overlap: undefined })).toMatchObject({
      max_length: 'This form field is required!',
      overlap: 'This form field is required!',
    });
    expect(segmentationErrors({ ...SEGMENTATION_DEFAULTS, max_length: 100, overlap: 100 })).toEqual({ overlap: 'slice.overlapTooLarge' });
  });

  it('wants a parent chunk longer than the child in parent-child mode', () => {
    expect(segmentationErrors({ ...SEGMENTATION_DEFAULTS, mode: 'parent_child', parent_max_length: 500 })).toEqual({ parent_max_length: 'slice.parentTooSmall' });
    expect(segmentationErrors({ ...SEGMENTATION_DEFAULTS, mode: 'parent_child', parent_max_length: 1600 })).toEqual({});
  });

  it('refuses custom identifiers that are empty, too long, system keywords or repeats', () => {
    expect(checkIdentifier(' ')).toBe('slice.identifierEmpty');
    expect(checkIdentifier('x'.repeat(11))).toBe('slice.identifierTooLong');
    expect(checkIdentifier('\\n')).toBe('slice.identifierKeyword');
    expect(checkIdentifier('NULL')).toBe('slice.identifierKeyword');
    expect(checkIdentifier('。')).toBe('slice.identifierDuplicate');
    expect(checkIdentifier('##', ['##'])).toBe('slice.identifierDuplicate');
    expect(checkIdentifier('##')).toBeNull();
    expect(segmentationErrors({ ...SEGMENTATION_DEFAULTS, custom: ['##', '##'] })).toEqual({ 'custom.1': 'slice.identifierDuplicate' });
  });

  it('sends the picked separators then the custom ones, unescaped and without repeats', () => {
    expect(separatorsOf({ separators: ['\n\n', '。'], custom: [' ## ', '\\t', '。'] })).toEqual(['\n\n', '。', '##', '\t']);
  });
});
