import { ArtifactNotFoundError, type ArtifactClient } from '@actions/artifact'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { unzip, UNZIP_LIMITS, type UnzipLimits } from './unzip.ts'
import { basename, join } from 'node:path'

/**
 * Uploads and downloads through the Actions artifact service. Names are unique within a workflow run,
 * and a re-run (attempt 2 and later) keeps the earlier attempt's artifacts: `replace` deletes a
 * same-named one first, as upload-artifact's `overwrite` does.
 */
export interface UploadOptions {
  retentionDays?: number | undefined
  replace: boolean
}

/** A folder as one zip artifact, its files at the zip's root. */
export async function uploadFolder(client: ArtifactClient, name: string, dir: string, options: UploadOptions): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  if (options.replace) await deleteIfPresent(client, name)
  const { id } = await client.uploadArtifact(name, files, dir, { ...retention(options), compressionLevel: 6 })
  if (id === undefined) throw new Error(`the artifact service gave no id for ${name}`)
  return id
}

/**
 * One file, not zipped: GitHub serves it as is, so an HTML file opens in the browser. The artifact
 * takes the file's name, which must therefore be unique in the workflow run.
 */
export async function uploadSingleFile(client: ArtifactClient, file: string, options: UploadOptions): Promise<number> {
  if (options.replace) await deleteIfPresent(client, basename(file))
  const { id } = await client.uploadArtifact(basename(file), [file], join(file, '..'), { ...retention(options), skipArchive: true })
  if (id === undefined) throw new Error(`the artifact service gave no id for ${basename(file)}`)
  return id
}

/** Where an artifact of another workflow run is read from, through the REST API. */
export interface OtherRun {
  token: string
  owner: string
  repo: string
  runId: number
}

/**
 * Downloads an artifact into dir, unpacked with our own limits (unzip.ts): an artifact may have been
 * written by a pull request, forks included, and the toolkit's own unzip has none (a 1 MB bomb wrote
 * 1 GiB). The zip is fetched as it is, beside dir, and removed afterwards whatever happens; a digest
 * that does not match is an error. Publish, baseline and merge all come through here.
 */
export async function downloadArtifact(client: ArtifactClient, artifactId: number, dir: string, from: OtherRun | null, digest: string | null = null, limits: UnzipLimits = UNZIP_LIMITS): Promise<void> {
  const findBy = from ? { token: from.token, workflowRunId: from.runId, repositoryOwner: from.owner, repositoryName: from.repo } : undefined
  const download = await mkdtemp(`${dir.replace(/[\\/]+$/, '')}.download-`)
  try {
    const result = await client.downloadArtifact(artifactId, { path: download, skipDecompress: true, ...(findBy ? { findBy } : {}), ...(digest ? { expectedHash: digest } : {}) })
    if (result.digestMismatch) throw new Error(`artifact ${artifactId} does not match its recorded digest ${digest}; it was not used`)
    const [file, ...more] = await readdir(download)
    if (file === undefined || more.length > 0) throw new Error(`artifact ${artifactId} did not download as one zip`)
    const zip = join(download, file)
    const { size } = await stat(zip)
    if (size > limits.maxTotalBytes) throw new Error(`artifact ${artifactId} is ${Math.round(size / 2 ** 20)} MiB; a run folder is at most ${limits.maxTotalBytes / 2 ** 20} MiB`)
    try {
      await unzip(await readFile(zip), dir, limits)
    } catch (error) {
      // dir was made to hold this artifact: nothing of a refused one stays.
      await rm(dir, { recursive: true, force: true })
      throw new Error(`artifact ${artifactId} was not unpacked: ${(error as Error).message}`, { cause: error })
    }
  } finally {
    await rm(download, { recursive: true, force: true })
  }
}

async function deleteIfPresent(client: ArtifactClient, name: string): Promise<void> {
  try {
    await client.deleteArtifact(name)
  } catch (error) {
    if (!(error instanceof ArtifactNotFoundError)) throw error
  }
}

function retention(options: UploadOptions): { retentionDays?: number } {
  return options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays }
}
