export { SchemaForm, type SchemaFormProps } from './schema-form';
export { useSchemaForm, type ObjectSchema, type SchemaFormApi, type UseSchemaFormOptions } from './use-schema-form';
export { renderBuiltinWidget, type WidgetRenderer, type WidgetRenderProps } from './field-widget';
export { decodeMessage, encodeMessage, issueToMessage, kitErrorMap, registerMessageKeys, textToMessage, type MessageDescriptor } from './messages';
export { InvalidJson, parseJson, prepareValues, schemaResolver } from './resolver';
export { normalizeServerPath, serverFieldErrors, splitServerErrors, submitErrorMessage, type ServerFieldError } from './server-errors';
