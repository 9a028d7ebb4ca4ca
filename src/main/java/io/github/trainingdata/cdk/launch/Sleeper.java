package io.github.trainingdata.cdk.launch;

import java.time.Duration;

/** Waits between polls; tests pass one that advances a fake clock instead of waiting. */
@FunctionalInterface
public interface Sleeper {
    /**
     * Waits for the given time.
     *
     * @param duration how long to wait
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void sleep(Duration duration) throws InterruptedException;

    /**
     * The real one.
     *
     * @return a sleeper that blocks the current thread
     */
    static Sleeper system() {
        return duration -> Thread.sleep(duration.toMillis());
    }
}
