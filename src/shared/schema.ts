// Generated from src/api/openapi.yaml by scripts/gen-types.mjs (npm run gen:types).
// Do not edit by hand: a test fails when this file is stale.

export interface paths {
    "/orgs/{orgId}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List invites for an organization */
        get: operations["listInvites"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth-connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get URL for OAuth flow
         * @description Generates a URL that the browser renders to start the OAuth flow for a new connection.
         */
        post: operations["oauthConnect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/connections/{connectionId}:oauth-update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Get URL for updating OAuth connection
         * @description Generates a URL for the browser to start an OAuth flow that updates an existing connection. No request body.
         */
        patch: operations["oauthUpdate"];
        trace?: never;
    };
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a project */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List connections (beyond the seed)
         * @description Beyond the seed's 13 operations: the real service's list-connections operation, which its own clients call around the OAuth flow. The filters are exact matches and combine; the answer is the whole list, oldest first.
         */
        get: operations["listConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/connections:generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate a connection (beyond the seed)
         * @description Beyond the seed: the real service's generate-connection operation, which makes a connection from credentials the user gave (an API key, a username and password, client credentials, custom inputs) instead of a consent page. The body carries exactly the credential kind of the provider's scheme: `apiKey` for `apiKey`, `basicAuth` for `basic`, `oauth2ClientCredentials` for `oauth2` with grant `clientCredentials`, `oauth2PasswordCredentials` for grant `password`, `customAuth` for `custom` (one non-empty value per item of `customOpts.inputs`), none for `none`; another kind is a 400 whose issue names the field. The new connection answers 201 with status `created`, without its credentials; the emulator then verifies it (see docs/emulator.md).
         */
        post: operations["generateConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/connections/{connectionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a connection */
        get: operations["getConnection"];
        put?: never;
        post?: never;
        /**
         * Delete a connection
         * @description Beyond the seed (the platform's browser SDK calls it to remove a connection).
         */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        /**
         * Update a connection (beyond the seed)
         * @description Beyond the seed: the real service's update-connection operation. `updateMask` names the fields of `connection` to change (each once), among providerWorkspaceRef, providerMetadata and the credential kinds; each field it names must be in `connection`, and fields it does not name are left as they are. A credential must be of the connection's own scheme (another kind is a 400 whose issue names it). A change of credentials sets the connection `created` and verifies it again. Answers the connection, without its credentials.
         */
        patch: operations["updateConnection"];
        trace?: never;
    };
    "/projects/{projectIdOrName}/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List destinations */
        get: operations["listDestinations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/destinations/{destination}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a destination */
        delete: operations["deleteDestination"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/integrations/{integrationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search records
         * @description Served by the search host ({search_url}, which also ends in /v1), not the main API host: same path as deleteIntegration, another server.
         */
        post: operations["searchRecords"];
        /** Delete an integration */
        delete: operations["deleteIntegration"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/topics/{topicId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a topic */
        delete: operations["deleteTopic"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/topic-destination-routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List topic destination routes */
        get: operations["listTopicDestinationRoutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/notification-event-topic-routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List notification event-topic routes */
        get: operations["listNotificationEventTopicRoutes"];
        put?: never;
        /** Create a notification event-topic route */
        post: operations["createNotificationEventTopicRoute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a project
         * @description Beyond the seed (the platform's browser SDK reads the project before oauth-connect).
         */
        get: operations["getProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/providers/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a provider's information
         * @description Beyond the seed (the platform's browser SDK reads it before oauth-connect; it needs oauth2Opts for an OAuth provider). Public: no credential is needed, and one that is sent is not checked.
         */
        get: operations["getProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List integrations
         * @description Beyond the seed.
         */
        get: operations["listIntegrations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectIdOrName}/provider-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List provider apps
         * @description Beyond the seed.
         */
        get: operations["listProviderApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Format: date-time */
        Timestamp: string;
        Invite: {
            /** @description invite ID */
            id: string;
            /** Format: email */
            invitedEmail: string;
            /** @enum {string} */
            parentType: "org";
            /** @description ID of the parent, for example the org ID */
            parentId: string;
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
        };
        Project: {
            id: string;
            name: string;
            /** @description application name, displayed to end users */
            appName: string;
            orgId: string;
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
            entitlements?: {
                brandingRemoval?: {
                    value: boolean;
                };
            };
        };
        CreateProjectRequest: {
            appName: string;
            /** @description Stored in lower case. */
            name: string;
            orgId: string;
        };
        Group: {
            groupRef: string;
            groupName: string;
            projectId: string;
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
        };
        Consumer: {
            consumerRef: string;
            consumerName: string;
            projectId: string;
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
        };
        ProviderApp: {
            id: string;
            projectId: string;
            provider: string;
            clientId: string;
            externalRef?: string;
            scopes?: string[][];
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
        };
        Token: {
            token: string;
            issuedAt?: components["schemas"]["Timestamp"];
            expiresAt?: components["schemas"]["Timestamp"];
        };
        OAuth2AuthorizationCode: {
            accessToken?: components["schemas"]["Token"];
            refreshToken?: components["schemas"]["Token"];
            scopes?: string[];
        };
        /**
         * @description created: just created, or the access token was just refreshed; working: successfully used to make a request; bad_credentials: a request, or a token refresh, met credential-related problems.
         * @enum {string}
         */
        ConnectionStatus: "created" | "working" | "bad_credentials";
        /**
         * @description How the connection signs in to the provider. `custom` (a provider of authType custom, signing in with its customOpts.inputs) is beyond the spec's list, which names no scheme for such providers.
         * @enum {string}
         */
        AuthScheme: "none" | "apiKey" | "basic" | "oauth2/authorizationCode" | "oauth2/authorizationCodePKCE" | "oauth2/clientCredentials" | "oauth2/password" | "custom";
        Connection: {
            id: string;
            projectId: string;
            provider: string;
            group: components["schemas"]["Group"];
            consumer: components["schemas"]["Consumer"];
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
            authScheme: components["schemas"]["AuthScheme"];
            status: components["schemas"]["ConnectionStatus"];
            providerApp?: components["schemas"]["ProviderApp"];
            providerWorkspaceRef?: string;
            providerConsumerRef?: string;
            oauth2AuthorizationCode?: components["schemas"]["OAuth2AuthorizationCode"];
            /** @description The API key used while making the connection: only in get-connection's answer with includeCreds (or includeRefreshToken), never elsewhere. */
            apiKey?: string;
            /** @description Free-form; its contents are the provider's. */
            providerMetadata?: {
                [key: string]: unknown;
            };
        };
        /** @description projectId is required; the emulator also accepts the real service's newer name, projectIdOrName, in its place. */
        OAuthConnectRequest: {
            /** @description project ID (or name) */
            projectId: string;
            /** @description The real service's 2026 name for projectId; when projectId is absent it stands in its place. */
            projectIdOrName?: string;
            provider: string;
            groupRef: string;
            consumerRef: string;
            /** @description defaults to groupRef */
            groupName?: string;
            /** @description defaults to consumerRef */
            consumerName?: string;
            /** @description The provider workspace (e.g. a Zendesk subdomain). Required, non-empty, when the provider's oauth2Opts.explicitWorkspaceRequired is true: without it the answer is a 400 whose issue names providerWorkspaceRef. */
            providerWorkspaceRef?: string;
            /** @description `{ "<name>": { "value": "...", "source": "input" } }`. Each item of the provider's metadata.input needs a non-empty string `value`: without it the answer is a 400 whose issue names providerMetadata.<name>. */
            providerMetadata?: {
                [key: string]: unknown;
            };
            providerAppId?: string;
            /** @description Used internally by the UI library; set to false or omit when calling manually. */
            enableCSRFProtection?: boolean;
        };
        BasicAuth: {
            username: string;
            password: string;
        };
        OAuth2ClientCredentials: {
            clientId: string;
            clientSecret: string;
            scopes?: string[];
        };
        OAuth2PasswordCredentials: {
            username: string;
            password: string;
            clientId: string;
            clientSecret: string;
            scopes?: string[];
        };
        /** @description The value of each of the provider's customOpts.inputs, by its name. */
        CustomAuth: {
            [key: string]: string;
        };
        /** @description Exactly one credential kind, the one of the provider's scheme (none for a provider of authType none). Credential values are never echoed in a problem. */
        GenerateConnectionRequest: {
            provider: string;
            groupRef: string;
            consumerRef: string;
            /** @description defaults to groupRef */
            groupName?: string;
            /** @description defaults to consumerRef */
            consumerName?: string;
            providerWorkspaceRef?: string;
            /** @description As oauth-connect's. */
            providerMetadata?: {
                [key: string]: unknown;
            };
            apiKey?: string;
            basicAuth?: components["schemas"]["BasicAuth"];
            oauth2ClientCredentials?: components["schemas"]["OAuth2ClientCredentials"];
            oauth2PasswordCredentials?: components["schemas"]["OAuth2PasswordCredentials"];
            customAuth?: components["schemas"]["CustomAuth"];
        };
        /** @description The new values of the fields that updateMask names (other fields are ignored). */
        ConnectionUpdate: {
            providerWorkspaceRef?: string;
            providerMetadata?: {
                [key: string]: unknown;
            };
            apiKey?: string;
            basicAuth?: components["schemas"]["BasicAuth"];
            oauth2ClientCredentials?: components["schemas"]["OAuth2ClientCredentials"];
            oauth2PasswordCredentials?: components["schemas"]["OAuth2PasswordCredentials"];
            customAuth?: components["schemas"]["CustomAuth"];
        };
        UpdateConnectionRequest: {
            /** @description The fields of `connection` to change, each once. */
            updateMask: ("providerWorkspaceRef" | "providerMetadata" | "apiKey" | "basicAuth" | "oauth2ClientCredentials" | "oauth2PasswordCredentials" | "customAuth")[];
            connection: components["schemas"]["ConnectionUpdate"];
        };
        Destination: {
            id: string;
            name: string;
            /** @description destination type, for example webhook */
            type: string;
            metadata: components["schemas"]["DestinationMetadata"];
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
        };
        /** @description Type-specific settings; a webhook uses url and headers. */
        DestinationMetadata: {
            url?: string;
            headers?: {
                [key: string]: string;
            };
            streamName?: string;
            region?: string;
            partitionKeyTemplate?: string;
        };
        TopicDestinationRoute: {
            id: string;
            topicId: string;
            destinationId: string;
            projectId: string;
            createTime: components["schemas"]["Timestamp"];
        };
        /**
         * @description Every event type that can be listed in responses and filters.
         * @enum {string}
         */
        NotificationEventType: "read.backfill.done" | "connection.created" | "connection.error" | "installation.created" | "installation.updated" | "installation.deleted" | "read.schedule.paused" | "destination.webhook.disabled" | "read.triggered.done" | "read.triggered.error";
        /**
         * @description The event types accepted when creating a route.
         * @enum {string}
         */
        NotificationEventTypeInput: "read.backfill.done" | "connection.created" | "connection.error" | "installation.created" | "installation.updated" | "installation.deleted" | "read.schedule.paused" | "destination.webhook.disabled";
        NotificationEventTopicRoute: {
            id: string;
            eventType: components["schemas"]["NotificationEventType"];
            topicId: string;
            projectId: string;
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
        };
        CreateNotificationEventTopicRouteRequest: {
            eventType: components["schemas"]["NotificationEventTypeInput"];
            topicId: string;
        };
        FieldFilter: {
            fieldName: string;
            /** @enum {string} */
            operator: "eq";
            value: string;
        };
        SearchRequest: {
            objectName: string;
            fieldFilters: components["schemas"]["FieldFilter"][];
        };
        SearchResultEntry: {
            fields: {
                [key: string]: unknown;
            };
            mappedFields: {
                [key: string]: unknown;
            };
            raw: {
                [key: string]: unknown;
            };
        };
        SearchResult: {
            result: components["schemas"]["SearchResultEntry"][];
        };
        /** @description Beyond the seed. */
        Integration: {
            id: string;
            projectId: string;
            name: string;
            provider: string;
            createTime: components["schemas"]["Timestamp"];
            updateTime?: components["schemas"]["Timestamp"];
            latestRevision: components["schemas"]["Revision"];
        };
        /** @description A revision of an integration's definition. */
        Revision: {
            id: string;
            specVersion: string;
            createTime: components["schemas"]["Timestamp"];
            /** @description The integration's definition (the objects it reads, ...). */
            content: {
                [key: string]: unknown;
            };
        };
        /** @enum {string} */
        ProviderAuthType: "oauth2" | "apiKey" | "basic" | "jwt" | "custom" | "none";
        /** @description Beyond the seed. A provider of the catalog. */
        ProviderInfo: {
            name: string;
            displayName?: string;
            authType: components["schemas"]["ProviderAuthType"];
            /** @description the provider API base URL; may hold {{.workspace}} */
            baseURL: string;
            defaultModule: string;
            support: components["schemas"]["ProviderSupport"];
            oauth2Opts?: components["schemas"]["OAuth2Opts"];
            apiKeyOpts?: components["schemas"]["ApiKeyOpts"];
            basicOpts?: components["schemas"]["BasicOpts"];
            customOpts?: components["schemas"]["CustomOpts"];
            /** @description Images of the provider; the darkMode ones are for a dark UI. */
            media?: {
                regular?: components["schemas"]["ProviderMedia"];
                darkMode?: components["schemas"]["ProviderMedia"];
            };
            labels?: {
                [key: string]: string;
            };
            metadata?: components["schemas"]["ProviderMetadataInfo"];
        };
        /** @description How an API key is sent to the provider (authType apiKey). */
        ApiKeyOpts: {
            /** @enum {string} */
            attachmentType: "header" | "query";
            header?: {
                name: string;
                valuePrefix?: string;
            };
            query?: {
                name: string;
            };
            /**
             * Format: uri
             * @description where to find the API key
             */
            docsURL?: string;
        };
        /** @description A provider of authType basic. With apiKeyAsBasic, its username and password are one API key, carried in the field apiKeyAsBasicOpts.fieldUsed names (the other an empty string). */
        BasicOpts: {
            apiKeyAsBasic?: boolean;
            apiKeyAsBasicOpts?: {
                /** @enum {string} */
                fieldUsed?: "username" | "password";
                keyFormat?: string;
            };
            /**
             * Format: uri
             * @description where to find the username and password (or key)
             */
            docsURL?: string;
        };
        /** @description A provider of authType custom signs in with these inputs (customAuth of generate connection). */
        CustomOpts: {
            inputs?: components["schemas"]["CustomAuthInput"][];
        };
        CustomAuthInput: {
            /** @description the key of customAuth that carries it */
            name: string;
            /** @description the label to show */
            displayName: string;
            /** @description a hint on what to type */
            prompt?: string;
            /**
             * Format: uri
             * @description where to find the value
             */
            docsURL?: string;
            /**
             * @description plain text, masked, or a choice of options (older catalog entries have none, read as masked)
             * @enum {string}
             */
            fieldType?: "fieldTypeText" | "fieldTypePassword" | "fieldTypeSelect";
            /** @description The choices of a fieldTypeSelect input. */
            options?: {
                value: string;
                label: string;
            }[];
        };
        ProviderMedia: {
            /**
             * Format: uri
             * @description a square icon
             */
            iconURL?: string;
            /**
             * Format: uri
             * @description the provider's logo
             */
            logoURL?: string;
        };
        /** @description What a connection to the provider needs beyond the OAuth flow: `input` is what the user must give before oauth-connect (it goes in providerMetadata as `{ "<name>": { "value": "...", "source": "input" } }`); `postAuthentication` is what the connector fetches itself once authorized (nothing for the user to type). */
        ProviderMetadataInfo: {
            input?: components["schemas"]["MetadataItemInput"][];
            postAuthentication?: components["schemas"]["MetadataItemPostAuthentication"][];
        };
        /** @description Metadata provided as manual input. */
        MetadataItemInput: {
            /** @description the key of providerMetadata that carries it */
            name: string;
            /** @description the label to show */
            displayName?: string;
            /** @description a hint on what to type */
            prompt?: string;
            /** @description the value to prefill */
            defaultValue?: string;
            /**
             * Format: uri
             * @description where to find the value
             */
            docsURL?: string;
            /** @description The modules that need this input (all when omitted). */
            moduleDependencies?: {
                [key: string]: unknown;
            };
        };
        /** @description Metadata the connector fetches itself after authentication. */
        MetadataItemPostAuthentication: {
            name: string;
            moduleDependencies?: {
                [key: string]: unknown;
            };
        };
        ProviderSupport: {
            read: boolean;
            write: boolean;
            proxy: boolean;
            subscribe: boolean;
            delete: boolean;
            bulkWrite: {
                insert: boolean;
                update: boolean;
                upsert: boolean;
                delete: boolean;
            };
            search: {
                operators: {
                    equals: boolean;
                };
            };
        };
        OAuth2Opts: {
            /** @enum {string} */
            grantType: "authorizationCode" | "authorizationCodePKCE" | "clientCredentials" | "password";
            /** @description may hold {{.workspace}} */
            authURL?: string;
            /** @description may hold {{.workspace}} */
            tokenURL: string;
            /** Format: uri */
            docsURL?: string;
            explicitScopesRequired: boolean;
            explicitWorkspaceRequired: boolean;
            /** @description Where the token answer carries the consumer, workspace and scopes. */
            tokenMetadataFields: {
                consumerRefField?: string;
                workspaceRefField?: string;
                scopesField?: string;
            };
        };
        ProblemIssue: {
            /** @default about:blank */
            type?: string;
            title?: string;
            detail: string;
            /** @description Where the offending input is (path, query, header or body). */
            in?: string;
            /** @description name or location of the offending input, for example an item path */
            name?: string;
            /** @description the offending value */
            value?: unknown;
        };
        /** @description RFC 9457 Problem Details, with the platform's extension members. */
        Problem: {
            /**
             * Format: uri
             * @default about:blank
             */
            type?: string;
            /** Format: uri */
            href?: string;
            title?: string;
            /** Format: int32 */
            status?: number;
            detail?: string;
            /**
             * Format: uri
             * @description identifies this occurrence: an absolute URI
             */
            instance?: string;
            subsystem?: string;
            time?: components["schemas"]["Timestamp"];
            requestId?: string;
            causes?: string[];
            remedy?: string;
            /** Format: email */
            supportEmail?: string;
            supportPhone?: string;
            /** Format: uri */
            supportUrl?: string;
            retryable?: boolean;
            retryAfter?: components["schemas"]["Timestamp"];
            context?: {
                [key: string]: unknown;
            };
            issues?: components["schemas"]["ProblemIssue"][];
        };
    };
    responses: {
        /** @description The request is malformed or fails validation; `issues` lists each problem. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No valid credential, or a credential of a scheme the operation does not accept. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The credential may not act on this resource. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such resource. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request conflicts with the resource's current state. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Any other error: 405 wrong method, 413 body too large, 415 wrong content type, 429 rate limited (with Retry-After), 5xx server errors. */
        Error: {
            headers: {
                /** @description Seconds, or an HTTP date, after which a retry may succeed. */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description The project's ID or name. */
        projectIdOrName: string;
        connectionId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listInvites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization's invites. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invite"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    oauthConnect: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OAuthConnectRequest"];
            };
        };
        responses: {
            /** @description The URL to render. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    oauthUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                connectionId: components["parameters"]["connectionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The URL to render. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProjectRequest"];
            };
        };
        responses: {
            /** @description The newly created project. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            default: components["responses"]["Error"];
        };
    };
    listConnections: {
        parameters: {
            query?: {
                /** @description Only connections to this provider. */
                provider?: string;
                /** @description Only connections of this group. */
                groupRef?: string;
                /** @description Only connections of this consumer. */
                consumerRef?: string;
            };
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's connections that match every filter given. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    generateConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateConnectionRequest"];
            };
        };
        responses: {
            /** @description The new connection, without its credentials. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    getConnection: {
        parameters: {
            query?: {
                /** @description When true, the access token is included in the response. */
                includeCreds?: boolean;
                /** @description When true, the refresh token is included along with the access token, and includeCreds is ignored. */
                includeRefreshToken?: boolean;
                /** @description ifExpired refreshes the access token only if it has expired; force refreshes it regardless of expiration. */
                refresh?: "force" | "ifExpired";
            };
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                connectionId: components["parameters"]["connectionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                connectionId: components["parameters"]["connectionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    updateConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                connectionId: components["parameters"]["connectionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConnectionRequest"];
            };
        };
        responses: {
            /** @description The connection as changed, without its credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    listDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's destinations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Destination"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    deleteDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                /** @description The destination ID. */
                destination: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            default: components["responses"]["Error"];
        };
    };
    searchRecords: {
        parameters: {
            query: {
                /** @description The group reference for the search. */
                groupRef: string;
            };
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                integrationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchRequest"];
            };
        };
        responses: {
            /** @description The matching records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    deleteIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                integrationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    deleteTopic: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
                topicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            default: components["responses"]["Error"];
        };
    };
    listTopicDestinationRoutes: {
        parameters: {
            query?: {
                /** @description Filter by topic ID. */
                topicId?: string;
                /** @description Filter by destination ID. */
                destinationId?: string;
            };
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching routes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopicDestinationRoute"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    listNotificationEventTopicRoutes: {
        parameters: {
            query?: {
                /** @description Filter by topic ID. */
                topicId?: string;
                /** @description Filter by notification event type. */
                eventType?: components["schemas"]["NotificationEventType"];
            };
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching routes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationEventTopicRoute"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    createNotificationEventTopicRoute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationEventTopicRouteRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationEventTopicRoute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            default: components["responses"]["Error"];
        };
    };
    getProject: {
        parameters: {
            query?: {
                /** @description When true, the answer includes the project's entitlements. */
                includeEntitlements?: boolean;
            };
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    getProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider's information. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderInfo"];
                };
            };
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    listIntegrations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's integrations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
    listProviderApps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The project's ID or name. */
                projectIdOrName: components["parameters"]["projectIdOrName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's provider apps. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderApp"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            default: components["responses"]["Error"];
        };
    };
}
