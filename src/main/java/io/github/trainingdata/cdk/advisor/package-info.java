/**
 * The advisor: facts about a training dataset in, a recommended SageMaker data source and a
 * comparison of start-up time, read throughput and cost for every option out. Pure Java (JDK
 * classes only) so it runs from {@code java -jar} with nothing on the class path; every figure it
 * uses lives in {@link io.github.trainingdata.cdk.advisor.PublishedFigures}.
 */
package io.github.trainingdata.cdk.advisor;
