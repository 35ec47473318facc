import { memo, useMemo } from 'react';
import { cn } from '../../../ui/cn';
import { renderMarkdown } from './markdown';
import s from './markdown.module.css';

export interface MarkdownViewProps {
  text: string;
  className?: string;
  'data-testid'?: string;
}

/**
 * Markdown from a model or a builder, rendered by ./markdown.ts (the text's own HTML is escaped,
 * so the HTML set here is ours). Re-rendered only when the text changes (a streamed answer grows).
 */
export const MarkdownView = memo(function MarkdownView({ text, className, ...rest }: MarkdownViewProps) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={cn(s.markdown, className)} data-slot="markdown" dangerouslySetInnerHTML={{ __html: html }} {...rest} />;
});
