import 'virtual:blueprint-pages.css';
import { Button, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The region choice of sign-in (docs/product/states.md): the account exists in more than one region. */
export function RegionChoice({
  regions,
  onChoose,
  onBack,
}: {
  regions: { name: string; server: string }[];
  onChoose: (server: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const [server, setServer] = useState(regions[0]?.server ?? '');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (server) onChoose(server);
      }}
    >
      <RadioGroup
        label={t('login.region.body')}
        selectedValue={server}
        onChange={(event) => setServer(event.currentTarget.value)}
      >
        {regions.map((region) => (
          <Radio key={region.server} value={region.server} label={region.name} />
        ))}
      </RadioGroup>
      <div className="studio-form-actions">
        <Button variant="minimal" icon="arrow-left" text={t('login.back')} onClick={onBack} />
        <Button type="submit" intent={Intent.PRIMARY} text={t('login.region.continue')} />
      </div>
    </form>
  );
}
