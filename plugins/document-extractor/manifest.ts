import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, type FlowNode, type PluginIssue, type PortContext } from '../../src/plugin-sdk';
import { dify } from './dify';

/** The widget of this kind's view (view.tsx): a picker of file variables only. */
export const DOCUMENT_EXTRACTOR_WIDGETS = { fileVariable: 'document-extractor.file-variable' } as const;

const configSchema = z.object({
  /** A file or a list of files (a start field, sys.files, a list operator's result …). */
  variable: MaybeSelector.default([]).meta({ label: 'fields.variable', help: 'fields.variableHelp', widget: DOCUMENT_EXTRACTOR_WIDGETS.fileVariable, order: 0 }),
});
export type DocumentExtractorConfig = z.infer<typeof configSchema>;

/** `text` is one string for one file, a list of strings (one per file) for a list. */
function outputs(config: DocumentExtractorConfig, ctx: PortContext) {
  const t = isSelector(config.variable) ? ctx.typeOf(config.variable) : undefined;
  return [{ name: 'text', type: t?.startsWith('array[') ? ('array[string]' as const) : ('string' as const), labelKey: 'outputs.text' }];
}

function validate(node: FlowNode<DocumentExtractorConfig>): PluginIssue[] {
  return isSelector(node.config.variable) ? [] : [{ key: 'issues.variableMissing', path: ['variable'] }];
}

/** Reads the text of uploaded files (pdf, doc, docx, txt, md, xls, xlsx, csv), as Dify's document extractor. */
export const documentExtractorPlugin = defineNodePlugin({
  kind: 'document-extractor',
  dify,
  version: 1,
  category: 'transform',
  icon: { lucide: 'file-text' },
  color: '#16a34a',
  i18n: {
      zh: {
        title: '文档提取器',
        description: '读取上传文件（PDF、Word、TXT、Markdown、表格）中的文字',
        fields: { variable: '文件变量', variableHelp: '单个文件得到一段文字，文件列表得到每个文件一段' },
        outputs: { text: '提取的文字' },
        outputHint: { one: '输出：这个文件的一段文字', list: '输出：每个文件一段文字（文本列表）' },
        issues: { variableMissing: '请选择要读取的文件变量' },
      },
      en: {
        title: 'Document extractor',
        description: 'Reads the text of uploaded files (PDF, Word, TXT, Markdown, spreadsheets)',
        fields: { variable: 'File variable', variableHelp: 'One file gives one text; a list of files one text each' },
        outputs: { text: 'Extracted text' },
        outputHint: { one: 'Output: one text for this file', list: 'Output: one text per file (a list of texts)' },
        issues: { variableMissing: 'Choose the file variable to read' },
      },
  },
  configSchema,
  outputs,
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default documentExtractorPlugin;
