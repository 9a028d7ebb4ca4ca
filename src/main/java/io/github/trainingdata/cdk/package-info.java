/**
 * What every package of the library shares: {@link io.github.trainingdata.cdk.SynthRule}, one rule checked at synth
 * with its id, field, what it allows and its source, and {@link io.github.trainingdata.cdk.ConfigurationError}, the
 * error a broken rule raises, naming the construct path, the field, the bad value and what is allowed. The constructs
 * live in the packages below it: {@code storage} (the stores), {@code network}, {@code training} (channels, direct
 * reads and the job definition), {@code preload}, {@code monitoring}, {@code platform} and {@code advisor}.
 */
package io.github.trainingdata.cdk;
