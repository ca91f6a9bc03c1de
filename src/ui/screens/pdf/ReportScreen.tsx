import 'virtual:blueprint-pages.css';
import 'virtual:blueprint-shell.css';
import './report.css';
import {
  AnchorButton,
  Button,
  ButtonGroup,
  Callout,
  H2,
  H3,
  H4,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { isApiError } from '../../../services/api/http';
import { noteReportExported } from '../../../services/api/privacy';
import {
  loadReportData,
  profileReportKeys,
  type ReportData,
  type ReportKind,
} from '../../../services/api/profileReport';
import { buildReportModel, type ReportBlock, type ReportModel } from '../../../services/pdf/reportModel';
import { queryClient } from '../../app/queryClient';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';
import { useProfileLabels } from '../../components/profileLabels';

const errorDetail = (error: unknown) =>
  isApiError(error) ? error.detail : error instanceof Error ? error.message : String(error);

/** Saves a file through a temporary link (the browser's download). */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * pdf-basic/:id and pdf-expand/:id: the printable report of a profile, and its PDF file. The routes have no
 * shell, so the screen brings the studio's query client itself (the same cache as the profile screen).
 */
export function ReportScreen({ kind }: { kind: ReportKind }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Report kind={kind} />
    </QueryClientProvider>
  );
}

function Report({ kind }: { kind: ReportKind }) {
  const { t, i18n } = useTranslation('report');
  const { id: param } = useParams<{ id: string }>();
  const id = Number(param);
  const companyId = useActiveAccount()?.company_id ?? 0;
  const labels = useProfileLabels();
  const report = useQuery({
    queryKey: profileReportKeys.report(id, kind),
    queryFn: ({ signal }) => loadReportData(id, kind, companyId, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
  const language = i18n.language;
  const generatedAt = report.dataUpdatedAt;
  const model = useMemo(() => {
    if (!report.data) return null;
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    return buildReportModel(
      report.data,
      {
        t,
        dateTime: (iso) => dateTime.format(new Date(iso)),
        date: (iso) => date.format(new Date(iso)),
        status: labels.status,
        risk: labels.risk,
        language,
      },
      new Date(generatedAt),
    );
  }, [report.data, language, t, labels.status, labels.risk, generatedAt]);
  usePageTitle(model ? `${model.title}: ${model.name}` : t(`title.${kind}`));

  if (!model || !report.data) {
    return (
      <main className="studio-report" aria-labelledby="page-title">
        <H2 id="page-title" className="studio-report-title">
          {t(`title.${kind}`)}
        </H2>
        {report.isError || !(id > 0) ? (
          <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('state.loadFailed')}>
            {/* The server's detail. */}
            <p>{report.isError ? errorDetail(report.error) : null}</p>
            <ButtonGroup>
              <Button icon="refresh" text={t('actions.retry')} onClick={() => report.refetch()} />
              {id > 0 && <BackLink id={id} />}
            </ButtonGroup>
          </Callout>
        ) : (
          <NonIdealState icon={<Spinner />} description={t('state.loading')} />
        )}
      </main>
    );
  }

  return (
    <main className="studio-report" aria-labelledby="page-title">
      <header className="studio-report-header">
        <div>
          <H2 id="page-title" className="studio-report-title">
            {model.title}
          </H2>
          <p className="studio-report-name">{model.name}</p>
          <p className="studio-muted">{t('generated', { date: model.generated })}</p>
        </div>
        <DownloadActions id={id} data={report.data} model={model} />
      </header>
      {model.sections.map((section) => (
        <section key={section.id} className="studio-report-section" aria-labelledby={`report-${section.id}`}>
          <H3 id={`report-${section.id}`}>{section.title}</H3>
          {section.blocks.map((block, index) => (
            // Blocks have no identity of their own; their order is fixed by the model.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <Block key={index} block={block} />
          ))}
        </section>
      ))}
    </main>
  );
}

function BackLink({ id }: { id: number }) {
  const { t } = useTranslation('report');
  return (
    <Link href={`~/profile/${id}`} asChild>
      <AnchorButton role="link" icon="arrow-left" text={t('actions.back')} />
    </Link>
  );
}

function DownloadActions({ id, data, model }: { id: number; data: ReportData; model: ReportModel }) {
  const { t } = useTranslation('report');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { makeReportPdf, reportFileName } = await import('../../../services/pdf/reportFile');
      const file = await makeReportPdf(data, model, (page, pages) =>
        t('footer', { date: model.generated, page, pages }),
      );
      saveFile(file, reportFileName(id, data.kind));
      // The access log names who took the report away; a failure to say so does not take the file back.
      void noteReportExported(id, { format: 'pdf', report: data.kind }).catch(() => undefined);
    } catch (error) {
      setFailure(errorDetail(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="studio-report-actions">
      <ButtonGroup aria-label={t('actions.label')}>
        <Button
          intent={Intent.PRIMARY}
          icon="download"
          text={busy ? t('state.preparing') : t('actions.download')}
          loading={busy}
          onClick={download}
        />
        <Button icon="print" text={t('actions.print')} onClick={() => window.print()} />
        <BackLink id={id} />
      </ButtonGroup>
      {failure && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('state.pdfFailed')}>
          {failure}
        </Callout>
      )}
    </div>
  );
}

function Block({ block }: { block: ReportBlock }) {
  switch (block.kind) {
    case 'heading':
      return <H4 className="studio-report-heading">{block.text}</H4>;
    case 'text':
      return <p className="studio-muted">{block.text}</p>;
    case 'fields':
      return (
        <dl className="studio-report-fields">
          {block.rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      );
    case 'table':
      return (
        <HTMLTable compact striped className="studio-report-table">
          <thead>
            <tr>
              {block.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are fixed by the model and have no id.
              <tr key={index}>
                {row.map((cell, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional.
                  <td key={column}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      );
    case 'images':
      return (
        <div className="studio-report-images">
          {block.images.map((image) => (
            <figure key={image.id}>
              <img src={image.url} alt={image.caption} loading="lazy" />
              <figcaption className="studio-muted">{image.caption}</figcaption>
            </figure>
          ))}
        </div>
      );
  }
}
