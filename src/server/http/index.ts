export * from './address-guard';
export * from './guarded-client';
export * from './html-text';
export * from './request-body';
export * from './web-page-reader';
