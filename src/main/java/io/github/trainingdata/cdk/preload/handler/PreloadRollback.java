package io.github.trainingdata.cdk.preload.handler;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import io.github.trainingdata.cdk.internal.handler.CustomResourceEvent;
import io.github.trainingdata.cdk.internal.handler.ExecutionArns;
import io.github.trainingdata.cdk.internal.handler.OwnStack;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ListExecutionsResponse;

/**
 * An Update that CloudFormation sends while it rolls back an update of the stack: it carries the properties of the
 * configuration being restored. Whether CloudFormation sends one to a custom resource that returned a new physical
 * id (rather than only a Delete of that id) is not documented, so the handler copes with both: on such an Update it
 * starts nothing, stops the execution of the configuration being abandoned if it runs, and answers with the newest
 * execution that warmed the restored configuration (its name carries a digest of the WarmKey, see
 * {@link PreloadExecution}), found with ListExecutions. Never waits, never fails.
 */
final class PreloadRollback {
    /** Executions ListExecutions returns per page (its maximum). */
    private static final int PAGE_SIZE = 100;
    /** Pages looked at, newest executions first: the last 1,000 warm-ups of the preload's state machine. */
    private static final int MAX_PAGES = 10;

    private final CloudFormationClient cloudFormation;
    private final SfnClient stepFunctions;
    private final PreloadTeardown teardown;

    PreloadRollback(CloudFormationClient cloudFormation, SfnClient stepFunctions, PreloadTeardown teardown) {
        this.cloudFormation = cloudFormation;
        this.stepFunctions = stepFunctions;
        this.teardown = teardown;
    }

    /**
     * Whether the stack is rolling back an update ({@code UPDATE_ROLLBACK_IN_PROGRESS}, from DescribeStacks on the
     * event's StackId). When that cannot be told (an error after the SDK's retries), the Update is handled as an
     * ordinary one, as before this check existed.
     */
    boolean inProgress(CustomResourceEvent request, LambdaLogger log) {
        return OwnStack.is(cloudFormation, request, StackStatus.UPDATE_ROLLBACK_IN_PROGRESS, log,
                "rolls back (handled as an ordinary update)");
    }

    /**
     * Restores the preload of the configuration CloudFormation rolls back to.
     *
     * @param request  the rollback's Update: ResourceProperties are the restored configuration, OldResourceProperties
     *                 the abandoned one, PhysicalResourceId the abandoned execution
     * @param restored the restored configuration's properties
     * @param log      the log
     * @return the physical id: the newest execution that warmed the restored configuration, or, when none is found,
     *         a name no execution has (isComplete then reports UNKNOWN)
     */
    String restore(CustomResourceEvent request, PreloadProperties restored, LambdaLogger log) {
        String abandoned = request.physicalResourceId();
        if (!PreloadExecution.warms(abandoned, restored.workerJobNamePrefix(), restored.warmKey())) {
            String machine = String.valueOf(request.oldResourceProperties().get(PreloadProperties.STATE_MACHINE_ARN));
            if (machine.contains(":stateMachine:")) {
                teardown.stopIfRunning(ExecutionArns.of(machine, abandoned), "PreloadRolledBack",
                        "CloudFormation rolled back the update that started this warm-up", log);
            }
        }
        Optional<String> found = newestExecution(restored, log);
        if (found.isPresent()) {
            log.log("Rollback: restored preload execution " + found.get() + " of the configuration rolled back to; "
                    + "nothing started");
            return found.get();
        }
        String none = PreloadExecution.name(restored.workerJobNamePrefix(), restored.warmKey(),
                request.stackId() + "|" + request.logicalResourceId() + "|" + request.requestId() + "|rollback");
        log.log("Rollback: no execution of the configuration rolled back to was found (it may predate execution "
                + "names with a WarmKey digest, or Step Functions no longer keeps it): nothing started, status UNKNOWN, "
                + "physical id " + none);
        return none;
    }

    private Optional<String> newestExecution(PreloadProperties restored, LambdaLogger log) {
        String token = null;
        try {
            for (int page = 0; page < MAX_PAGES; page++) {
                String next = token;
                ListExecutionsResponse response = stepFunctions.listExecutions(r -> r
                        .stateMachineArn(restored.stateMachineArn()).maxResults(PAGE_SIZE).nextToken(next));
                Optional<String> match = response.executions().stream().map(ExecutionListItem::name)
                        .filter(name -> PreloadExecution.warms(name, restored.workerJobNamePrefix(), restored.warmKey()))
                        .findFirst();
                if (match.isPresent() || response.nextToken() == null) {
                    return match;
                }
                token = response.nextToken();
            }
        } catch (SdkException e) {
            log.log("Could not list the executions of " + restored.stateMachineArn() + " (the rollback goes on): "
                    + e.getMessage());
        }
        return Optional.empty();
    }
}
