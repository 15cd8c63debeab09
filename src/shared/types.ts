// Friendly names for the schemas of openapi.yaml (generated into schema.ts).
import type { components, operations } from './schema.js';

type Schemas = components['schemas'];

export type Invite = Schemas['Invite'];
export type Project = Schemas['Project'];
export type CreateProjectRequest = Schemas['CreateProjectRequest'];
export type Connection = Schemas['Connection'];
export type ConnectionStatus = Schemas['ConnectionStatus'];
export type AuthScheme = Schemas['AuthScheme'];
export type Group = Schemas['Group'];
export type Consumer = Schemas['Consumer'];
export type ProviderApp = Schemas['ProviderApp'];
export type ProviderInfo = Schemas['ProviderInfo'];
export type Integration = Schemas['Integration'];
export type Token = Schemas['Token'];
export type OAuth2AuthorizationCode = Schemas['OAuth2AuthorizationCode'];
export type OAuthConnectRequest = Schemas['OAuthConnectRequest'];
export type GenerateConnectionRequest = Schemas['GenerateConnectionRequest'];
export type UpdateConnectionRequest = Schemas['UpdateConnectionRequest'];
export type BasicAuth = Schemas['BasicAuth'];
export type OAuth2ClientCredentials = Schemas['OAuth2ClientCredentials'];
export type OAuth2PasswordCredentials = Schemas['OAuth2PasswordCredentials'];
export type CustomAuthInput = Schemas['CustomAuthInput'];
export type Destination = Schemas['Destination'];
export type DestinationMetadata = Schemas['DestinationMetadata'];
export type TopicDestinationRoute = Schemas['TopicDestinationRoute'];
export type NotificationEventType = Schemas['NotificationEventType'];
export type NotificationEventTypeInput = Schemas['NotificationEventTypeInput'];
export type NotificationEventTopicRoute = Schemas['NotificationEventTopicRoute'];
export type CreateNotificationEventTopicRouteRequest = Schemas['CreateNotificationEventTopicRouteRequest'];
export type FieldFilter = Schemas['FieldFilter'];
export type SearchRequest = Schemas['SearchRequest'];
export type SearchResult = Schemas['SearchResult'];
export type SearchResultEntry = Schemas['SearchResultEntry'];
export type Problem = Schemas['Problem'];
export type ProblemIssue = Schemas['ProblemIssue'];

/** The query options of get-connection (includeCreds, includeRefreshToken, refresh). */
export type GetConnectionQuery = NonNullable<operations['getConnection']['parameters']['query']>;
export type GetProjectQuery = NonNullable<operations['getProject']['parameters']['query']>;
export type ListConnectionsQuery = NonNullable<operations['listConnections']['parameters']['query']>;
export type ListTopicDestinationRoutesQuery = NonNullable<
  operations['listTopicDestinationRoutes']['parameters']['query']
>;
export type ListNotificationEventTopicRoutesQuery = NonNullable<
  operations['listNotificationEventTopicRoutes']['parameters']['query']
>;
