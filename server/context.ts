import type { Region } from '#contract/auth';
import type { LimiterFactory } from './auth/attemptLimiter';
import type { SecretBox } from './auth/secrets';
import type { TokenService } from './auth/tokens';
import type { ServerConfig } from './config';
import type { Db } from './db/client';
import type { CallIceService } from './domain/callIce';
import type { CountCache } from './domain/countCache';
import type { EvidenceSigner } from './domain/evidenceKey';
import type { IpAllowListCache, ProxyTrust } from './domain/ipAllowList';
import type { PrincipalReads } from './domain/principal';
import type { ReportReads } from './domain/reportReads';
import type { SessionService } from './domain/sessions';
import type { FaceMatcher } from './integrations/faceMatch';
import type { MailOutbox } from './integrations/mail';
import type { MailWorker } from './integrations/mailWorker';
import type { PaymentProvider } from './integrations/payment/provider';
import type { SmsSender } from './integrations/sms';
import type { WebhookWorker } from './integrations/webhooks/worker';
import type { CallDesk } from './realtime/callDesk';
import type { ProfileWatch } from './realtime/profileWatch';
import type { ReviewFeed } from './realtime/reviewFeed';
import type { UserPush } from './realtime/userPush';
import type { Storage } from './storage/storage';
import type { UploadGate } from './storage/uploadGate';

/** Everything a route or the realtime hub needs, built once by buildApp. */
export interface AppContext {
  config: ServerConfig;
  db: Db;
  tokens: TokenService;
  secrets: SecretBox;
  storage: Storage;
  /** Uploads per user: rate and how many at once. */
  uploads: UploadGate;
  mail: MailOutbox;
  /** Hands the mail queue to the relay (SMTP_URL); null without one (every message is sent as it is queued). */
  mailWorker: MailWorker | null;
  /** Text messages (the second-channel code): the local stand-in, `server/integrations/sms.ts`. */
  sms: SmsSender;
  /** Compares a login photo with the user's auth photo. */
  faceMatcher: FaceMatcher;
  regions: Region[];
  /** The dashboard's and the call report's answers, shared while they run and kept until they change. */
  reports: ReportReads;
  /** The access checks' principals, kept until they change where the database says so (docs/decisions/0179-principals-kept-until-they-change.md). */
  principals: PrincipalReads;
  /** Profile list counts; write paths that change a company's profiles call `invalidate`. */
  profileCounts: CountCache;
  /** The live call queue (presence, answering, hang-ups); bound to the socket server by the hub. */
  calls: CallDesk;
  /** The webhook delivery engine (server/integrations/webhooks). */
  webhooks: WebhookWorker;
  /** Who has a profile open, and `profile.changed` after each profile or document write. */
  profileWatch: ProfileWatch;
  /** `review.case_changed` to the company's reviewers after each committed case change. */
  reviewFeed: ReviewFeed;
  /** Events for one staff user's sockets (notifications). */
  userPush: UserPush;
  /** Each company's IP allow-list, cached briefly; its write paths call `forget`. */
  ipAllowList: IpAllowListCache;
  /** Each side's STUN/TURN servers and credentials, and the companies' relay-only calls (cached briefly). */
  callIce: CallIceService;
  /** The proxies trusted for `X-Forwarded-For` (config `trustProxy`), as fastify's trust function. */
  proxyTrust: ProxyTrust | false;
  /** Server-side sessions of access tokens: logout and password changes end them. */
  sessions: SessionService;
  /** Checkout sessions and their signed notifications: the local payment service's adapter. */
  payments: PaymentProvider;
  /** Attempt limits: counters in Redis with REDIS_URL, else in memory (server/auth/attemptLimiter.ts). */
  limiters: LimiterFactory;
  /** Signs evidence packages: EVIDENCE_SIGNING_KEY, else the key kept sealed in the database. */
  evidence: EvidenceSigner;
}

/** The demo regions, both served by this process (docs/server.md). */
export function regionsOf(config: Pick<ServerConfig, 'publicUrl' | 'secondRegionUrl'>): Region[] {
  return [
    { name: 'Europe', server: config.publicUrl },
    { name: 'Türkiye', server: config.secondRegionUrl },
  ];
}
