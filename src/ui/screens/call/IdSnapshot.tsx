import { Button, Callout, Card, H3, Intent } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { documentKeys, getDocumentTypes, uploadDocument } from '../../../services/api/documents';
import { isApiError } from '../../../services/api/http';
import { frameOf } from '../../../shared/videoFrame';
import { showError, showSuccess } from '../../toaster';

/**
 * The customer holds their ID card to the camera; a snapshot is saved as a page of an identity document. Only
 * while the call is live: after it there is no video to take one from.
 */
export function IdSnapshot({
  profileId,
  remoteVideo,
  live,
}: {
  profileId: number;
  remoteVideo: RefObject<HTMLVideoElement | null>;
  live: boolean;
}) {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const types = useQuery({
    queryKey: documentKeys.types,
    queryFn: ({ signal }) => getDocumentTypes({ signal }),
  });
  const idType = types.data?.find((type) => type.document_class === 'ID');
  const save = useMutation({
    mutationFn: async () => {
      const frame = await frameOf(() => remoteVideo.current);
      if (!frame) throw new Error(t('snapshot.noVideo'));
      const page = new File([frame], `id-snapshot-${Date.now()}.jpg`, { type: 'image/jpeg' });
      return uploadDocument({
        profile: profileId,
        type: idType?.id ?? 0,
        pages: [page],
        upload_source: 'video_call',
        stream: true,
      });
    },
    onSuccess: () => {
      void showSuccess(t('snapshot.saved'));
      void queryClient.invalidateQueries({ queryKey: documentKeys.all(profileId) });
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : error.message),
  });
  return (
    <Card>
      <H3>{t('snapshot.title')}</H3>
      <p className="studio-muted">{live ? t('snapshot.help') : t('snapshot.over')}</p>
      {!live ? null : types.isSuccess && !idType ? (
        <Callout intent={Intent.WARNING}>{t('snapshot.noType')}</Callout>
      ) : (
        <Button
          icon="camera"
          text={t('snapshot.take')}
          loading={save.isPending}
          disabled={!idType}
          onClick={() => save.mutate()}
        />
      )}
    </Card>
  );
}
