package io.sharestream.common.errors;

/** A setting or option has a bad value; the message names it. */
public class InvalidSettingException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public InvalidSettingException(String message) {
    super(message);
  }

  public InvalidSettingException(String message, Throwable cause) {
    super(message, cause);
  }
}
