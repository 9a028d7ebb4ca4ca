package io.github.trainingdata.examples;

import java.util.List;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Validations;
import software.constructs.IConstruct;

/**
 * The cdk-nag findings of aws-cdk-lib's {@code IKey.grantEncryptDecrypt}, which the training execution role gets on
 * the data layer's key (it writes model artifacts and checkpoints to the SSE-KMS bucket): the action families
 * {@code kms:GenerateDataKey*} and {@code kms:ReEncrypt*}, on that one key only.
 */
final class KeyGrantFindings {
    private KeyGrantFindings() {
    }

    static void acknowledge(IConstruct scope) {
        for (String action : List.of("kms:GenerateDataKey*", "kms:ReEncrypt*")) {
            Validations.of(scope).acknowledge(Acknowledgment.builder().id("AwsSolutions-IAM5[Action::" + action + "]")
                    .reason("aws-cdk-lib's grantEncryptDecrypt on exactly the data layer's KMS key: S3 writes to the "
                            + "SSE-KMS bucket need the GenerateDataKey and ReEncrypt variants; no other key is named.")
                    .build());
        }
    }
}
