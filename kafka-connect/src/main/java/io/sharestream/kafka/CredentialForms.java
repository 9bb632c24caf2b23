package io.sharestream.kafka;

import static io.sharestream.kafka.DeltaSharingSourceConfig.BEARER_TOKEN;
import static io.sharestream.kafka.DeltaSharingSourceConfig.CREDENTIAL_SETTINGS;
import static io.sharestream.kafka.DeltaSharingSourceConfig.ENDPOINT;
import static io.sharestream.kafka.DeltaSharingSourceConfig.OAUTH_CLIENT_ID;
import static io.sharestream.kafka.DeltaSharingSourceConfig.OAUTH_CLIENT_SECRET;
import static io.sharestream.kafka.DeltaSharingSourceConfig.OAUTH_SCOPE;
import static io.sharestream.kafka.DeltaSharingSourceConfig.OAUTH_TOKEN_ENDPOINT;
import static io.sharestream.kafka.DeltaSharingSourceConfig.PROFILE_JSON;
import static io.sharestream.kafka.DeltaSharingSourceConfig.PROFILE_PATH;

import io.sharestream.common.profile.DeltaSharingProfile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connector's credential forms: a profile file ({@code profile.path}), its JSON inline ({@code profile.json}), or
 * an endpoint with a bearer token or OAuth client credentials. Exactly one form must be complete.
 */
final class CredentialForms {
  private CredentialForms() {}

  /** The setting a credential problem is reported on: the first credential setting given, else profile.path. */
  static String credentialSetting(Map<String, String> props) {
    for (String s : CREDENTIAL_SETTINGS) {
      if (given(props, s)) {
        return s;
      }
    }
    return PROFILE_PATH;
  }

  /** Null when exactly one credential form is complete; else what is wrong. */
  static String credentialProblem(Map<String, String> props) {
    boolean path = given(props, PROFILE_PATH);
    boolean json = given(props, PROFILE_JSON);
    boolean endpoint = given(props, ENDPOINT);
    boolean bearer = given(props, BEARER_TOKEN);
    boolean oauth = given(props, OAUTH_TOKEN_ENDPOINT) || given(props, OAUTH_CLIENT_ID)
        || given(props, OAUTH_CLIENT_SECRET) || given(props, OAUTH_SCOPE);
    int forms = (path ? 1 : 0) + (json ? 1 : 0) + (endpoint || bearer || oauth ? 1 : 0);
    if (forms == 0) {
      return "no credentials: set " + PROFILE_PATH + ", or " + PROFILE_JSON + ", or " + ENDPOINT + " with "
          + BEARER_TOKEN + ", or " + ENDPOINT + " with " + OAUTH_TOKEN_ENDPOINT + ", " + OAUTH_CLIENT_ID + " and "
          + OAUTH_CLIENT_SECRET;
    }
    if (forms > 1) {
      return "more than one credential form is set; keep exactly one of " + PROFILE_PATH + ", " + PROFILE_JSON
          + ", or the " + ENDPOINT + " settings";
    }
    if (endpoint || bearer || oauth) {
      if (!endpoint) {
        return ENDPOINT + " is required with " + (bearer ? BEARER_TOKEN : "the oauth.* settings");
      }
      if (bearer && oauth) {
        return "set either " + BEARER_TOKEN + " or the oauth.* settings, not both";
      }
      if (!bearer && !oauth) {
        return ENDPOINT + " needs " + BEARER_TOKEN + " or " + OAUTH_TOKEN_ENDPOINT + ", " + OAUTH_CLIENT_ID
            + " and " + OAUTH_CLIENT_SECRET;
      }
      if (oauth && !(given(props, OAUTH_TOKEN_ENDPOINT) && given(props, OAUTH_CLIENT_ID)
          && given(props, OAUTH_CLIENT_SECRET))) {
        return "OAuth needs all of " + OAUTH_TOKEN_ENDPOINT + ", " + OAUTH_CLIENT_ID + " and " + OAUTH_CLIENT_SECRET;
      }
    }
    return null;
  }

  /** The profile of a valid credential form, read or built (throws the core's InvalidProfileException). */
  static DeltaSharingProfile profile(Map<String, String> props) {
    if (given(props, PROFILE_PATH)) {
      return DeltaSharingProfile.fromFile(Path.of(props.get(PROFILE_PATH).trim()));
    }
    if (given(props, PROFILE_JSON)) {
      return DeltaSharingProfile.fromJson(props.get(PROFILE_JSON));
    }
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("endpoint", props.get(ENDPOINT).trim());
    if (given(props, BEARER_TOKEN)) {
      fields.put("shareCredentialsVersion", "1");
      fields.put("bearerToken", props.get(BEARER_TOKEN).trim());
    } else {
      fields.put("shareCredentialsVersion", "2");
      fields.put("type", "oauth_client_credentials");
      fields.put("tokenEndpoint", props.get(OAUTH_TOKEN_ENDPOINT).trim());
      fields.put("clientId", props.get(OAUTH_CLIENT_ID).trim());
      fields.put("clientSecret", props.get(OAUTH_CLIENT_SECRET));
      if (given(props, OAUTH_SCOPE)) {
        fields.put("scope", props.get(OAUTH_SCOPE).trim());
      }
    }
    return DeltaSharingProfile.fromMap(fields);
  }

  private static boolean given(Map<String, String> props, String name) {
    String v = props.get(name);
    return v != null && !v.trim().isEmpty();
  }

  // ------------------------------------------------------------------ validators and recommenders
}
