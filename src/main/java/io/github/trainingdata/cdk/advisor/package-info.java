/**
 * The advisor: facts about a training dataset and job in; a whole-job estimate of billable time and cost for
 * every SageMaker data source, and the cheapest one recommended, out. The model is calibrated on the twelve
 * published runs of AWS's data-source case study. Pure Java (JDK classes only) so it runs from
 * {@code java -jar} with nothing on the class path; every figure it uses lives in
 * {@link io.github.trainingdata.cdk.performance.PublishedFigures}.
 */
package io.github.trainingdata.cdk.advisor;
