import { PassThrough, type Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config';
import { byteLimit, checkedKey, hashing, KEY_PATTERN, type Storage, storageSigner } from './storage';

/** Multipart upload parts: 8 MB, two in flight, so an upload holds at most ~16 MB in memory. */
const PART_BYTES = 8 * 1024 * 1024;

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * The storage interface on an S3-compatible store (S3_BUCKET, S3_ENDPOINT, credentials): uploads are streamed
 * as multipart uploads (lib-storage) through the same byte limit as the local folder, so nothing past the limit
 * is kept (the multipart upload is aborted); downloads stream through /storage (signed as for the local
 * folder), which decrypts them: the store holds only ciphertext.
 */
export function createS3Storage(
  config: S3Config,
  signingSecret: string,
  publicUrl = '',
  options: { client?: S3Client } = {},
): Storage {
  const client =
    options.client ??
    new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
    });
  const signer = storageSigner(signingSecret, publicUrl);
  const Bucket = config.bucket;

  const storage: Storage = {
    async put(key, source, putOptions = {}) {
      let size = 0;
      const counter = byteLimit(putOptions.maxBytes ?? Number.POSITIVE_INFINITY, (n) => {
        size = n;
      });
      const hash = hashing();
      const body = source.pipe(counter).pipe(hash.stream);
      // An error of the source (a client cut off) ends the counted stream with it.
      const failed = new Promise<never>((_, reject) => {
        source.once('error', (error) => {
          counter.destroy(error);
          reject(error);
        });
        counter.once('error', (error) => {
          hash.stream.destroy(error);
          reject(error);
        });
      });
      const upload = new Upload({
        client,
        params: { Bucket, Key: checkedKey(key), Body: body },
        partSize: PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      });
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        await upload.abort().catch(() => undefined);
        source.resume();
        throw error;
      }
      return { key, size, sha256: hash.digest() };
    },
    open(key, range) {
      const out = new PassThrough();
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      client
        .send(new GetObjectCommand({ Bucket, Key: checkedKey(key), Range }))
        .then((object) => {
          const body = object.Body as Readable | undefined;
          if (!body) return out.destroy(new Error(`Empty object ${key}`));
          body.once('error', (error) => out.destroy(error));
          body.pipe(out);
        })
        .catch((error) => out.destroy(error));
      return out;
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checkedKey(key) }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && KEY_PATTERN.test(object.Key))
            yield { key: object.Key, modified: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async removePartial(before) {
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        const page = await client.send(
          new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }),
        );
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || (upload.Initiated && upload.Initiated >= before)) continue;
          await client.send(
            new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
          );
          removed += 1;
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (KeyMarker);
      return removed;
    },
    signedUrl: signer.signedUrl,
    verifySignature: signer.verifySignature,
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
  return storage;
}
