import { cn } from '../../../../ui/cn';
import { CopyButton } from '../../../../kit/widgets/copy-button';
import s from './api-tab.module.css';

/**
 * Read-only code with a copy button in its corner (snippets, examples, the base URL).
 * @example <CodeBlock code={curl} label="curl" data-testid="endpoint-run-curl" />
 */
export function CodeBlock({
  code,
  label,
  inline,
  wrap,
  className,
  'data-testid': testId,
}: {
  code: string;
  label: string;
  /** One line (a URL, a header): slimmer, wrapped. */
  inline?: boolean;
  /** Wrap long lines (HTML snippets) instead of scrolling sideways. */
  wrap?: boolean;
  className?: string;
  'data-testid'?: string;
}) {
  return (
    <div className={cn(s.codeBlock, inline && s.codeInline, wrap && s.codeWrap, className)} data-testid={testId}>
      <pre className={s.code} tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} iconOnly variant="ghost" className={s.codeCopy} data-testid={testId ? `${testId}-copy` : undefined} />
    </div>
  );
}
