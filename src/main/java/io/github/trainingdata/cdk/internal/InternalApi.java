package io.github.trainingdata.cdk.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type that is public only because another of the library's packages uses it (Java has no narrower
 * visibility across packages): not part of the API, it may change in any release, and the public-API listing
 * ({@code docs/public-api.txt}) leaves it out.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface InternalApi {
}
