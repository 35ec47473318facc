// The person and organisation picker (shared kit widget).
export { PersonOrgPicker, type PersonOrgPickerProps } from './person-org-picker';
export { PersonOrgPickerField, type PersonOrgPickerFieldProps } from './picker-field';
export { PickerStore, type PickerSnapshot, type PickerStoreOptions } from './picker-store';
export { apiPickerSource } from './api-source';
export { createMemoryPickerSource, demoId, demoPickerSeed, type MemoryPickerSource, type MemorySeed } from './memory-source';
export * from './types';
