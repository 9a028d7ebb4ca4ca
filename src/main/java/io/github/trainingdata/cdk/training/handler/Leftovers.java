package io.github.trainingdata.cdk.training.handler;

import java.util.ArrayList;
import java.util.List;

/**
 * What one look at a deleted definition found still running or still held, and what it could not look at for
 * now (throttling, a server error, a timeout): the delete waits while anything is listed here.
 */
final class Leftovers {
    private final List<String> executions = new ArrayList<>();
    private final List<String> jobs = new ArrayList<>();
    private final List<String> warmPools = new ArrayList<>();
    private final List<String> networkInterfaces = new ArrayList<>();
    private final List<String> otherInterfaces = new ArrayList<>();
    private final List<String> unseen = new ArrayList<>();
    private boolean recentJob;

    void execution(String arn) {
        executions.add(arn);
    }

    void job(String description) {
        jobs.add(description);
    }

    void warmPool(String description) {
        warmPools.add(description);
    }

    void networkInterface(String description) {
        networkInterfaces.add(description);
    }

    /** Notes an interface in the definition's subnets and group that serves another job: not waited for. */
    void otherInterface(String description) {
        otherInterfaces.add(description);
    }

    /** Notes something this look could not find out (a transient error, or no time left in this invocation). */
    void unseen(String what) {
        unseen.add(what);
    }

    /** Notes that a job of the definition ran within the last hour (so its network interfaces may still be held). */
    void recentJob() {
        recentJob = true;
    }

    boolean hasRecentJob() {
        return recentJob;
    }

    /** @return whether no execution, job or warm pool still runs and nothing was left unseen */
    boolean jobsEnded() {
        return executions.isEmpty() && jobs.isEmpty() && warmPools.isEmpty() && unseen.isEmpty();
    }

    /** @return whether nothing is left: the delete may go on */
    boolean none() {
        return jobsEnded() && networkInterfaces.isEmpty();
    }

    /** @return one line naming everything left, and the other jobs' interfaces not waited for, for the log */
    String summary() {
        List<String> parts = new ArrayList<>();
        add(parts, "running executions", executions);
        add(parts, "training jobs", jobs);
        add(parts, "warm pools", warmPools);
        add(parts, "network interfaces", networkInterfaces);
        add(parts, "not seen yet", unseen);
        add(parts, "other jobs' network interfaces (not waited for)", otherInterfaces);
        return parts.isEmpty() ? "nothing left" : String.join("; ", parts);
    }

    /** @return "" when every interface found was waited for, else "; " and the other jobs' interfaces not waited for */
    String notWaitedFor() {
        List<String> parts = new ArrayList<>();
        add(parts, "other jobs' network interfaces (not waited for)", otherInterfaces);
        return parts.isEmpty() ? "" : "; " + parts.get(0);
    }

    private static void add(List<String> parts, String noun, List<String> items) {
        if (!items.isEmpty()) {
            parts.add(noun + ": " + String.join(", ", items));
        }
    }
}
