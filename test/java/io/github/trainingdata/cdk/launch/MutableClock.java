package io.github.trainingdata.cdk.launch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that only moves when told to; its {@link #sleeper()} advances it instead of waiting. */
public final class MutableClock extends Clock {
    private Instant now;

    /**
     * A clock showing the given time.
     *
     * @param start the time it shows until advanced
     */
    public MutableClock(Instant start) {
        this.now = start;
    }

    /**
     * Moves the clock forward.
     *
     * @param duration how far
     */
    public synchronized void advance(Duration duration) {
        now = now.plus(duration);
    }

    /**
     * A sleeper that advances this clock by the requested time and returns at once.
     *
     * @return the sleeper
     */
    public Sleeper sleeper() {
        return this::advance;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("MutableClock is UTC only");
    }
}
