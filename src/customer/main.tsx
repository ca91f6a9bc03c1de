import './customer.css';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en-US/customer.json';
import tr from '../../locales/tr/customer.json';
import { CustomerApp } from './CustomerApp';

const language = navigator.language.toLowerCase().startsWith('tr') ? 'tr' : 'en-US';
document.documentElement.lang = language;

void i18next
  .use(initReactI18next)
  .init({
    lng: language,
    fallbackLng: 'en-US',
    resources: { 'en-US': { customer: en }, tr: { customer: tr } },
    defaultNS: 'customer',
    interpolation: { escapeValue: false },
  })
  .then(() => {
    i18next.on('languageChanged', (lng) => {
      document.documentElement.lang = lng;
    });
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    const container = document.getElementById('root');
    if (!container) throw new Error('The page has no #root element');
    createRoot(container).render(
      <StrictMode>
        <CustomerApp token={token} />
      </StrictMode>,
    );
  });
