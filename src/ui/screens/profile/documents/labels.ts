/** Translated labels of document values that come from the server as codes. */
import { useTranslation } from 'react-i18next';

const SOURCES = ['sdk', 'studio', 'web', 'biologin', 'biopay'] as const;
const ALERT_CODES = [
  'MRZ_CHECKSUM',
  'PHOTO_TAMPERING',
  'DOCUMENT_EXPIRED',
  'FACE_MISMATCH',
  'DATA_MISMATCH',
] as const;

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

export function useDocumentLabels() {
  const { t } = useTranslation('documents');
  const { t: tp } = useTranslation('profile');
  return {
    source: (value: string) => (isOneOf(SOURCES, value) ? t(`source.${value}`) : value),
    alert: (code: string, name: string) => (isOneOf(ALERT_CODES, code) ? t(`alerts.codes.${code}`) : name),
    documentClass: (value: string) =>
      isOneOf(['ID', 'DL', 'SE', 'PA', 'VA', 'UB', 'IB', 'SG', 'CO', 'OT', 'XX'] as const, value)
        ? tp(`documentClass.${value}`)
        : value,
  };
}
