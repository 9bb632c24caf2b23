package io.sharestream.kafka;

/** A task's credentials in JMX ({@code type=credentials}): when they expire, and how often the profile changed. */
public interface CredentialMetricsMBean {
  /** When the profile's bearer token expires, epoch milliseconds; -1 when the profile does not say. */
  long getExpirationTime();

  /** Seconds until the bearer token expires (negative once expired); -1 when the profile does not say. */
  long getSecondsToExpiry();

  /** How many times the profile file changed and its new credentials were taken up. */
  long getProfileReloads();
}
