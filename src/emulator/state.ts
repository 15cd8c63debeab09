// The emulator's state: what it holds of each resource of the platform, as
// kept in memory and written to its data file.
import type {
  Connection,
  ConnectionStatus,
  Destination,
  Invite,
  NotificationEventTopicRoute,
  Project,
  ProviderApp,
  Token,
  TopicDestinationRoute,
} from '../shared/types.js';
import type { Credential } from '../shared/sign-in.js';

export interface Org {
  id: string;
  name: string;
}

/** A destination and the project it belongs to (the spec's Destination has no projectId). */
export type StoredDestination = Destination & { projectId: string };

export interface Topic {
  id: string;
  projectId: string;
  name: string;
  createTime: string;
}

export interface StoredIntegration {
  id: string;
  projectId: string;
  name: string;
  provider: string;
  createTime: string;
  /** objectName -> (provider field name -> the integration's mapped name) */
  fieldMappings: Record<string, Record<string, string>>;
}

export interface StoredRecord {
  integrationId: string;
  groupRef: string;
  objectName: string;
  raw: Record<string, unknown>;
}

export interface StoredConnection extends Omit<Connection, 'oauth2AuthorizationCode' | 'apiKey'> {
  /** A connection made through consent: its OAuth tokens. */
  tokens?: { accessToken: Token; refreshToken: Token; scopes: string[] };
  /** A connection made by generate connection: the credentials it was given. */
  credentials?: Credential;
  /** A verification in progress: the status the connection reaches at `at`. */
  pending?: { status: ConnectionStatus; at: string };
}

export interface ConsentSession {
  id: string;
  mode: 'create' | 'update';
  projectId: string;
  provider: string;
  groupRef: string;
  groupName: string;
  consumerRef: string;
  consumerName: string;
  providerWorkspaceRef?: string;
  providerMetadata?: Record<string, unknown>;
  providerAppId?: string;
  connectionId?: string;
  createTime: string;
  expiresAt: string;
  /** Set once the user decided: the session cannot be used again. */
  decision?: 'allow' | 'allow_bad_credentials' | 'deny';
  resultConnectionId?: string;
}

export interface EmulatorState {
  version: 1;
  orgs: Org[];
  projects: Project[];
  invites: Invite[];
  providerApps: ProviderApp[];
  destinations: StoredDestination[];
  topics: Topic[];
  topicDestinationRoutes: TopicDestinationRoute[];
  notificationEventTopicRoutes: NotificationEventTopicRoute[];
  integrations: StoredIntegration[];
  records: StoredRecord[];
  connections: StoredConnection[];
  consents: ConsentSession[];
  /** The secret that signs this state's Bearer JWTs: random, kept with the data. */
  tokenSecret: string;
}
