import RotateCw from 'lucide-react/icons/rotate-cw';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Translation } from 'react-i18next';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';

/** Whether a render error goes to the error log (not those containing 'NotFoundError': docs/client.md, Failures the guest sees). */
export function shouldReport(text: string): boolean {
  return !text.includes('NotFoundError');
}

/** The text of an error report: name, message, stack and the component stack. */
export function errorReportText(error: unknown, componentStack?: string | null): string {
  const base = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  const where = typeof location === 'undefined' ? '' : `\nat ${location.pathname}`;
  return `${base}${componentStack ? `\n${componentStack}` : ''}${where}`.slice(0, 10_000);
}

interface Props {
  children: ReactNode;
  /** Sends a report (the store's errorLogCreate, fire and forget). */
  report: (text: string) => void;
}

interface State {
  failed: boolean;
}

/** Catches render errors, reports them (docs/api.md, `/errorLog/create`) and offers a reload. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    const text = errorReportText(error, info.componentStack);
    if (shouldReport(text)) this.props.report(text);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Translation ns="common">
        {(t) => (
          <div className="render-error" role="alert">
            <Card title={t('renderError')}>
              <Button icon={RotateCw} onClick={() => location.reload()}>
                {t('reload')}
              </Button>
            </Card>
          </div>
        )}
      </Translation>
    );
  }
}
